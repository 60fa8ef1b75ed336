project "shop" {
  id = "UPPER"
}
variable "cu" { default = 1 }
