project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
    }
    compute "second" { # ERROR: More than one read_write compute # HINT: type = "read_only"
      size = 2
    }
    compute "third" {
      type = "read_write" # ERROR: More than one read_write compute
    }
    compute "replica" {
      type = "read_only"
    }
  }

  branch "dev" {
    compute "primary" {
      type = "read_write"
    }
  }
}
