project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      lifecycle = { prevent_destroy = true } # ERROR: Unsupported argument # HINT: write lifecycle { ... }
      pg_settings { # ERROR: Unsupported block type # HINT: write pg_settings = { ... }
        work_mem = "64MB"
      }
    }
  }
}
