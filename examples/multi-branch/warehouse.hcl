# The data warehouse: one large fixed-size primary for nightly loads, and
# replicas for the analysts.
project "warehouse" {
  id = "bold-river-81736254"

  branch "main" {
    # Above 16 CU sizes are fixed only: no autoscaling range, and the compute
    # never scales to zero, so it takes no suspend timeout there.
    compute "loader" {
      size            = local.production ? 24 : 4
      suspend_timeout = local.production ? "never" : "15m"
      pg_settings = {
        maintenance_work_mem = "2GB"
        max_parallel_workers = "8"
      }

      lifecycle {
        prevent_destroy = true
      }
    }

    compute "analyst_a" {
      type   = "read_only"
      min_cu = 0.5
      max_cu = 8
    }

    compute "analyst_b" {
      type   = "read_only"
      min_cu = 0.5
      max_cu = 8
    }
  }
}
