locals {
  tier   = "small"
  prefix = local.tierr # ERROR: Undefined local value # HINT: Did you mean local.tier?
}

project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      name = "${local.prefix}-primary"
      size = local.sizes[local.tier] # ERROR: Undefined local value
    }
  }
}
