// Package nilsafety holds no code: its test calls every exported function of
// the library with zero and nil arguments and fails on a panic.
package nilsafety
