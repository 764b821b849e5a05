step mokutil --timeout 5
step mokutil --set-verbosity true
step mokutil --set-sbat-policy latest
printf '%s\n%s\n' 'Sb8to16chars' 'Sb8to16chars' | step mokutil --trust-mok
printf '%s\n%s\n' 'Sb8to16chars' 'Sb8to16chars' | step mokutil --use-db
