projet "other" { # ERROR: Unsupported block type
  id = "hidden-river-50598307"
}

project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    computes "primary" { # ERROR: Unsupported block type
    }
    compute "replica" {
      type = "read_only"
      lifecycel { # ERROR: Unsupported block type
        prevent_destroy = true
      }
    }
  }
}
