project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      type = read_write # ERROR: Invalid reference # HINT: use quotes: "read_write"
      name = primary.name # ERROR: Invalid reference
    }
    compute "replica" {
      type = "read_only"
      name = var # ERROR: Invalid reference
    }
  }
}
