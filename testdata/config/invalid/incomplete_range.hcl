project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      min_cu = 2 # ERROR: Incomplete autoscaling range # HINT: size = N
    }
    compute "replica" {
      type   = "read_only"
      max_cu = 4 # ERROR: Incomplete autoscaling range
    }
  }
}
