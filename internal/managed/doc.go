// Package managed holds the facts about each managed compute attribute
// that every package must agree on and that need no plan to state: its
// name, the compute block's arguments that set it, the service's field name
// for it, what a block that leaves it out asks for (Default), and the rules of its values the service defines (a suspend
// timeout of 0, settings that are never nil). config builds its compute
// block schema and its hints from here, and diff's attribute table
// (diff/attributes.go) names an entry here for each of its attributes;
// docs/architecture.md (Where to add things) says how the two go together.
package managed
