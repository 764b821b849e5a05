printf '%s\n%s\n' 'firmware-pw-4' 'firmware-pw-4' | step mokutil --password
