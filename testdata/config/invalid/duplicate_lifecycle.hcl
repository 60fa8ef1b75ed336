project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      lifecycle {
        prevent_destroy = true
      }
      lifecycle { # ERROR: Duplicate lifecycle block
        allow_restart = false
      }
    }
  }
}
