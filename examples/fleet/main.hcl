# Fleets: many alike computes, branches and projects from one block each,
# with for_each as in Terraform. Each instance has its own address, with its
# key: shop.main.reports["eu"], shop.preview["preview/pr-1"].primary,
# tenant["acme"].main.primary.
#
# It runs offline against the built-in emulator (api_url = "embedded"), which
# creates the projects and branches on first use:
#
#   neonform plan
#   neonform apply
#   neonform plan -var 'regions=["eu"]'    # the "us" replica would be deleted, alone

neonform {
  api_url = "embedded"
}

variable "regions" {
  type        = list(string)
  default     = ["eu", "us"]
  description = "One read replica of the shop per region"
}

variable "previews" {
  type        = list(string)
  default     = ["preview/pr-1", "preview/pr-2"]
  description = "Preview branches, by their names in the service"
}

locals {
  # One project per tenant: the key names the instance, the value is the
  # service's project id.
  tenants = {
    acme   = "cool-frost-31415926"
    globex = "bold-dawn-27182818"
  }
}

project "shop" {
  id = "quiet-meadow-52817364"

  branch "main" {
    compute "primary" {
      min_cu = 0.25
      max_cu = 2
    }

    compute "reports" {
      for_each = toset(var.regions)
      type     = "read_only"
      name     = "reports-${each.key}" # each instance needs a name of its own
      size     = each.key == "eu" ? 1 : 0.5
    }
  }

  branch "preview" {
    for_each = toset(var.previews)
    name     = each.key # the branch in the service; instances need one each

    compute "primary" {
      size            = 0.25
      suspend_timeout = "60s"
    }
  }
}

project "tenant" {
  for_each = local.tenants
  id       = each.value

  branch "main" {
    compute "primary" {
      min_cu = 0.25
      max_cu = 1
    }
  }
}
