package sim

// EachOrder lets the external tests enumerate renamings the way the
// symmetry reduction does.
var EachOrder = eachOrder
