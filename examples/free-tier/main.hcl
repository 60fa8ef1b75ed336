# A free-plan account: computes are capped at 2 CU (2 vCPU, 8 GB RAM), and
# validate refuses anything larger before it reaches the service.
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

  # A development branch that sleeps after a minute without queries.
  branch "dev" {
    compute "primary" {
      size            = 0.25
      suspend_timeout = "60s"
    }
  }
}
