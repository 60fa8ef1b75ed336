project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    exclusiv = true # ERROR: Unsupported argument

    compute "primary" {
      mni_cu                   = 1 # ERROR: Unsupported argument
      autoscaling_limit_max_cu = 4 # ERROR: Unsupported argument
      region_id                = "aws-us-east-2" # ERROR: Unsupported argument
    }
  }
}
