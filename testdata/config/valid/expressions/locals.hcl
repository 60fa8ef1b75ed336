locals {
  stage   = coalesce(env("NEONFORM_TEST_STAGE"), "dev")
  missing = env("NEONFORM_TEST_UNSET")
  prefix  = upper(local.stage)
}

# A second locals block; full is written before the base it uses.
locals {
  full     = format("%s-%s", local.prefix, local.base)
  base     = lower("Shop")
  sizes    = { small = 0.5, large = 8 }
  tier     = length(local.replicas) > 1 ? "large" : "small"
  replicas = concat(["r1"], ["r2"])
}
