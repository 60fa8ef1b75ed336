project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      min_cu = var.only_default / 4
      max_cu = var.from_env
      name   = var.from_file
    }

    compute "replica" {
      type        = "read_only"
      size        = var.from_cli
      name        = join("-", var.zones)
      pg_settings = merge(var.settings, { application_name = var.secret })
    }

    compute "other" {
      type = "read_only"
      name = "n${var.untyped}"
    }
  }
}
