package main

// version is the neonform release; the User-Agent and the plan files carry it.
// Release builds set it with -ldflags "-X main.version=...".
var version = "0.1.0-dev"
