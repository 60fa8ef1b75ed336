projet "other" { # ERROR: Unsupported block type # HINT: Did you mean "project"?
  id = "hidden-river-50598307"
}

project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    computes "primary" { # ERROR: Unsupported block type # HINT: Did you mean "compute"?
    }
    compute "replica" {
      type = "read_only"
      lifecycel { # ERROR: Unsupported block type # HINT: Did you mean "lifecycle"?
        prevent_destroy = true
      }
    }
  }
}
