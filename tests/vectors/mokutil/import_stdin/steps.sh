printf '%s\n%s\n' 'typed-in-pw-3' 'typed-in-pw-3' | step mokutil --import /data/mok.der
step mokutil --list-new
