printf '%s\n%s\n' 'Sb8to16chars' 'Sb8to16chars' | step mokutil --ignore-db
