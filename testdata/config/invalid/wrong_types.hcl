project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    exclusive = 3 # ERROR: Incorrect attribute value type

    compute "primary" {
      min_cu      = "a lot" # ERROR: Incorrect attribute value type
      max_cu      = 4
      disabled    = "yes" # ERROR: Incorrect attribute value type
      pg_settings = "work_mem=64MB" # ERROR: Incorrect attribute value type
      name        = ["primary"] # ERROR: Incorrect attribute value type

      lifecycle {
        prevent_destroy = "no" # ERROR: Incorrect attribute value type
      }
    }
  }
}
