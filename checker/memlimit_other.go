//go:build !linux

package checker

// memoryLimits knows no limit outside Linux: a search takes the default
// bound (see boundOf).
func memoryLimits() []memoryLimit { return nil }
