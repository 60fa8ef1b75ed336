project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      min_cu = 1
      max_cu = 18 # ERROR: Autoscaling above 16 CU # HINT: size = 18
    }
    compute "fixed_18_is_fine" {
      type = "read_only"
      size = 18
    }
    compute "range_to_16_is_fine" {
      type   = "read_only"
      min_cu = 8
      max_cu = 16
    }
  }
}
