# A fleet that never suspends: 19 for_each instances, one compute above 16 CU
# and one of a branches rule make 21 always active in one project; the
# service keeps at most 20 active at once. Disabled computes and computes that
# suspend are not counted.
locals {
  tenants = toset([for i in range(19) : "tenant-${i}"])
}

project "fleet" { # WARNING: More computes always active than a project allows # HINT: has 21 computes # HINT: 1 compute of a branches rule is counted once
  id = "dark-sun-46453911"

  branch "tenant" {
    for_each = local.tenants
    name     = each.key
    compute "primary" {
      suspend_timeout = "never"
    }
  }
  branch "main" {
    compute "primary" {
      size = 18
    }
    compute "paused" {
      type            = "read_only"
      suspend_timeout = "never"
      disabled        = true
    }
    compute "sleeps" {
      type = "read_only"
    }
  }
  branches "previews" {
    match = ["preview/*"]
    compute "primary" {
      suspend_timeout = "never"
    }
  }
}

# Exactly 20: no warning.
project "twenty" {
  id = "hidden-river-50598307"

  branch "tenant" {
    for_each = toset([for i in range(20) : "tenant-${i}"])
    name     = each.key
    compute "primary" {
      suspend_timeout = "never"
    }
  }
}

project "broken" {
  id = "Not An Id" # ERROR: Invalid project id
}
