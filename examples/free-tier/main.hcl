# A free-plan account: computes are capped at 2 CU (2 vCPU, 8 GB RAM) and
# suspend after the fixed 5 minutes; validate refuses anything else before it
# reaches the service.
#
#   neonform validate examples/free-tier

neonform {
  api_url      = "embedded"
  account_tier = "free"
}

project "side_project" {
  id = "small-wave-30418275"

  branch "main" {
    compute "primary" {
      min_cu = 0.25
      max_cu = 2 # the free plan's largest; 4 would fail validate
    }
  }

  # A development branch at the smallest size. It sleeps after 5 minutes
  # without queries: the free plan's timeout, which cannot be changed.
  branch "dev" {
    compute "primary" {
      size = 0.25
    }
  }
}
