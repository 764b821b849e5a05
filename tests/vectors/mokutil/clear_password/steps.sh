step mokutil --clear-password
