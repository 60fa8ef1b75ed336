project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      name = "reporting"
    }
    compute "reporting" { # ERROR: Duplicate compute name
      type = "read_only"
    }
    compute "analytics" {
      type = "read_only"
      name = "reporting" # ERROR: Duplicate compute name
    }
  }
}
