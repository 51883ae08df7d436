// Package sketch holds the estimators that count a column's distinct
// values from less than all of it: a HyperLogLog sketch for a column read
// whole but too large to keep, and the Haas–Stokes Duj1 estimator for one
// seen only through a sample. They are arithmetic on hashes and counts,
// with no query and no run state: one estimator serves the registers the
// statistical expert builds from streamed rows and those an engine builds
// in SQL (Dialect.HLLRegisters).
package sketch
