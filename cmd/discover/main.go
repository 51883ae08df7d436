// Command discover explores a database nobody has explained and writes a
// report of what it found, with the evidence behind every finding.
package main

import "os"

func main() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
