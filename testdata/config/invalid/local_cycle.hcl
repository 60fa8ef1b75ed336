locals {
  a = local.b # ERROR: Cycle in local values # HINT: local.a -> local.b -> local.a
  b = "${local.a}-x"
  c = local.c # ERROR: Cycle in local values
  d = upper(local.a)
}

project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      name = local.d
    }
  }
}
