project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    name = local.full

    compute "primary" {
      size            = local.sizes[local.tier]
      suspend_timeout = "1h30m"
      name            = "${local.prefix}-${local.missing}primary"
      pg_settings = {
        work_mem             = "64MB"
        max_parallel_workers = max(2, 4)
        enable_seqscan       = false
        application_name     = jsonencode({ app = local.base })
        search_path          = join(",", ["a", "b"])
      }
    }

    compute "reader" {
      type     = "read_only"
      name     = lookup({ a = "x" }, "b", "fallback")
      disabled = contains(keys(local.sizes), "large")
      min_cu   = min(1, 0.25)
      max_cu   = local.sizes["small"] * 8
    }
  }
}
