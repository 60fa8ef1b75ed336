// Package view renders a plan for people: for a terminal (Human), with the
// dangerous things first and every interruption in words, and as a
// pull-request comment (Markdown), under the size a comment may have. Both
// say a change the same way (words.go) and group a branch rule's instances
// into one fleet line (fleets.go). The JSON a command prints is the plan file's
// own document (diff/planfile), not a view.
//
// It reads the plan model and the model never imports it: the model records
// what a change does, and the views word it; a reason's words (ReasonWords,
// reasons.go) are the plan file's too, so diff/planfile imports them. Every
// string that came from the service or a file is shown through
// internal/textsafe, as data, never as markup or terminal control. A view
// writes only to the writer it is handed.
package view
