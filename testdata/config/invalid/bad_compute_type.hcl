project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      type = "read-write" # ERROR: Invalid compute type # HINT: Did you mean "read_write"?
    }
    compute "replica" {
      type = "replica" # ERROR: Invalid compute type # HINT: Did you mean "read_only"?
    }
  }
}
