variable "tenants" {
  type = map(string)
  default = {
    acme   = "dark-sun-46453911"
    globex = "hidden-river-50598307"
  }
}

variable "previews" {
  type    = list(string)
  default = ["pr-2", "pr-1"]
}

locals {
  regions = {
    us = { size = 2, suspend = "10m" }
    eu = { size = 1, suspend = "never" }
  }
}

# One project per tenant; a key may hold what a label cannot.
project "tenant" {
  for_each = var.tenants
  id       = each.value

  branch "main" {
    compute "primary" {
      name = "${each.key}-primary"
    }
  }
}

project "shop" {
  id = "wandering-lake-12345678"

  branch "main" {
    compute "primary" {
    }

    compute "reports" {
      for_each        = local.regions
      type            = "read_only"
      name            = "reports-${each.key}"
      size            = each.value.size
      suspend_timeout = each.value.suspend
    }
  }

  # Branches from a variable, in key order; the computes inside see the
  # branch's each.
  branch "preview" {
    for_each = toset(var.previews)
    name     = "preview/${each.key}"

    compute "primary" {
      pg_settings = { application_name = each.value }
    }
  }

  branch "listed" {
    for_each = ["b", "a"]
    name     = each.key
  }
}
