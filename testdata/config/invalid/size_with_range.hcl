project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      size   = 2 # ERROR: Conflicting size attributes # HINT: write one or the other
      min_cu = 1
    }
    compute "replica" {
      type   = "read_only"
      max_cu = 4
      size   = 4 # ERROR: Conflicting size attributes
    }
  }
}
