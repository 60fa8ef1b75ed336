project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      size = 0.125 # ERROR: Unsupported compute size # HINT: smallest is 0.25
    }
    compute "replica" {
      type   = "read_only"
      min_cu = 0.25
      max_cu = 0 # ERROR: Unsupported compute size
    }
  }
}
