# Names that are right, one level too high or too low.
branch "main" { # ERROR: Unsupported block type # HINT: goes inside a project block
}

project "shop" {
  id = "dark-sun-46453911"

  compute "primary" { # ERROR: Unsupported block type # HINT: goes inside a branch block
  }

  branch "main" {
    min_cu = 0.25 # ERROR: Unsupported argument # HINT: min_cu goes inside a compute block

    lifecycle { # ERROR: Unsupported block type # HINT: lifecycle goes inside a compute block
    }

    compute "primary" {
      exclusive       = true # ERROR: Unsupported argument # HINT: exclusive goes inside a branch block
      prevent_destroy = true # ERROR: Unsupported argument # HINT: goes inside a lifecycle block, as in lifecycle { prevent_destroy = ... }
    }
  }
}
