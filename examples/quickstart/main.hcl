# Quickstart: one project, its main branch, a primary that scales with load
# and a read replica for reports.
#
# It runs offline against the built-in emulator (api_url = "embedded"), which
# creates the project and branch on first use and keeps its data in .neonform/.
#
#   neonform validate          check this file; no network, no API key
#   neonform plan              see what would change and what each change does
#   neonform apply             make it so (asks first)
#
# Then edit a size below and plan again: the plan says which computes restart.

neonform {
  api_url = "embedded"
}

project "shop" {
  id = "quiet-meadow-52817364"

  branch "main" {
    # The branch's read-write compute: the one your application writes to.
    compute "primary" {
      type            = "read_write"
      min_cu          = 0.25 # autoscales from 0.25 CU (1 GB RAM) when the load is light ...
      max_cu          = 2    # ... up to 2 CU (8 GB RAM) under load
      suspend_timeout = "5m" # and scales to zero after 5 minutes without activity

      lifecycle {
        prevent_destroy = true # a plan that would delete or recreate it fails
      }
    }

    # A read replica: same data, read-only, sized on its own.
    compute "reports" {
      type = "read_only"
      size = 1 # fixed: 1 CU, 4 GB RAM
    }
  }
}
