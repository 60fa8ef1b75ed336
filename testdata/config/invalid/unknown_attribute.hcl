project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    exclusiv = true # ERROR: Unsupported argument # HINT: Did you mean "exclusive"?

    compute "primary" {
      mni_cu                   = 1 # ERROR: Unsupported argument # HINT: Did you mean "min_cu"?
      autoscaling_limit_max_cu = 4 # ERROR: Unsupported argument # HINT: Did you mean "max_cu"?
      region_id                = "aws-us-east-2" # ERROR: Unsupported argument
    }

    # One misspelt name is one error: min_cu is not also "incomplete".
    compute "replica" {
      type   = "read_only"
      min_cu = 0.25
      maxcu  = 2 # ERROR: Unsupported argument # HINT: Did you mean "max_cu"?
    }
  }
}
