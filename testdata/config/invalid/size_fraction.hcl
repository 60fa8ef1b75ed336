project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      size = 0.3 # ERROR: Unsupported compute size # HINT: nearest are 0.25 and 0.5
    }
    compute "replica" {
      type   = "read_only"
      min_cu = 0.3 # ERROR: Unsupported compute size
      max_cu = 4
    }
  }
}
