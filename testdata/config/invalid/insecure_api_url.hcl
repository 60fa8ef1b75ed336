neonform {
  api_url = "http://console.neon.tech/api/v2" # ERROR: Insecure API URL
}
