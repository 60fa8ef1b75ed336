// Package managed is the attribute table: each managed compute attribute
// once (table.go), with everything every package knows of it: its name, the
// compute block's arguments that set it, the service's field and JSON key,
// what a block that leaves it out asks for (Default), whether a project's
// defaults set it and whether a cost follows from it, and its kind
// (kinds.go): where its value lives, how it is read live, compared, shown,
// decoded, written in a block and sent. The values it describes are one
// type that a compute block, a state entry and a plan all hold (Values,
// Applied), with the rules of its values the service defines (a suspend
// timeout of 0, settings that are never nil). It sits low in the imports
// (api's wire types, sizing), so config, state and diff all read it;
// docs/architecture.md (One attribute table, Where to add things) says how.
package managed
