// Package family holds what the descriptions of one family of vigil's
// protocols share: the family's properties, claims and parameters, and the
// scenario helpers several of its protocols use. Each protocol's package
// describes itself (its Description) with them, so a family's common
// ground is written once.
package family
