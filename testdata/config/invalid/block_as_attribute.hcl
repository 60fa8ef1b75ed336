project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      lifecycle = { prevent_destroy = true } # ERROR: Unsupported argument
      pg_settings { # ERROR: Unsupported block type
        work_mem = "64MB"
      }
    }
  }
}
