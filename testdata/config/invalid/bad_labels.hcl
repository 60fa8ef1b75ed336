project "Shop" { # ERROR: Invalid label # HINT: Try "shop"
  id = "dark-sun-46453911"

  branch "feature/x" { # ERROR: Invalid label # HINT: name = "feature/x"
    compute "1st" { # ERROR: Invalid label
    }
    compute "my.db" { # ERROR: Invalid label # HINT: Try "my-db"
      type = "read_only"
    }
  }
}
