project "Shop" { # ERROR: Invalid label
  id = "dark-sun-46453911"

  branch "feature/x" { # ERROR: Invalid label
    compute "1st" { # ERROR: Invalid label
    }
    compute "my.db" { # ERROR: Invalid label
      type = "read_only"
    }
  }
}
