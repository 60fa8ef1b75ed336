locals {
  tier   = "small"
  prefix = local.tierr # ERROR: Undefined local value
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
