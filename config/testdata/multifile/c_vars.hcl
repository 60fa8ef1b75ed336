variable "min_cu" {
  type    = number
  default = 0.25
}

neonform {
  api_url = "https://console.neon.tech/api/v2"
}

project "Bad_Label" {
  id = "UPPER"

  branch "main" {
    compute "primary" {
      min_cu = 8
      max_cu = 1
    }
    compute "primary" {
      type = "read_only"
    }
  }
  branch "dev" {
    name = 42
    compute "x" {
      typo_attr = 1
    }
  }
}

projects "typo" {
  id = "typo-project"
}

project "heredoc" {
  id = <<-EOT
    not-an-id}
  EOT
  branch "main" {
    compute "primary" {
      max_cu = local.suffix
    }
  }
}
