# The web shop: its production branch, a staging copy, and a preview branch.
project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    # Live computes on main that are not declared here are deleted by apply.
    exclusive = true

    compute "primary" {
      min_cu          = 0.25
      max_cu          = var.primary_max_cu
      suspend_timeout = local.suspend
      pg_settings     = local.pg_common

      lifecycle {
        prevent_destroy = true  # never delete or recreate the shop's database host
        allow_restart   = false # a resize while customers are connected fails the plan
      }
    }

    # Was "analytics" until the reporting team took it over: see moved.hcl.
    compute "reports" {
      type            = "read_only"
      size            = local.replica_cu
      name            = format("%s-reports", var.environment)
      suspend_timeout = "never" # dashboards poll it all day
      pg_settings     = merge(local.pg_common, { work_mem = "128MB" })
    }
  }

  branch "staging" {
    compute "primary" {
      min_cu          = 0.25
      max_cu          = local.production ? 2 : 1
      suspend_timeout = "5m"
      pg_settings     = local.pg_common
    }
  }

  # A preview branch found by its name in the service, which is not an identifier.
  branch "checkout_preview" {
    name = "preview/new-checkout"

    compute "primary" {
      size            = 0.25
      suspend_timeout = "60s"
      disabled        = true # refuses connections until the preview opens; set to false then
    }
  }
}
