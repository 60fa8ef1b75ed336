project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    exclusive = true

    compute "primary" {
      type            = "read_write"
      min_cu          = 0.25
      max_cu          = 2
      suspend_timeout = "never"
      pg_settings     = { work_mem = "64MB", max_connections = 100, jit = false }
      name            = "shop-primary"

      lifecycle {
        prevent_destroy = true
        allow_restart   = false
      }
    }

    compute "reporting" {
      type            = "read_only"
      size            = 0.5
      suspend_timeout = "15m"
      disabled        = true
    }
  }

  branch "feature_x" {
    name = "feature/x"

    compute "app" {
      type = "read_only"
      size = 2
    }
  }

  branch "pinned" {
    id = "br-small-term-683261"
  }
}

project "blog" {
  id = "hidden-river-50598307"
}

moved {
  from = "shop.dev.reporting"
  to   = "shop.main.reporting"
}
