project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      min_cu = 4 # ERROR: Minimum above maximum # HINT: swap them
      max_cu = 2
    }
  }
}
