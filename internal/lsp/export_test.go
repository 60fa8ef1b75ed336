package lsp

// For the tests of package lsp_test, which run validate through
// internal/command (which imports this package).
var (
	StartServer = startServer
	PathOf      = pathOf
)

type Client = client

var PositionOf = positionOf
