step mokutil --import /data/mok.der --hash-file /data/import.hash
step mokutil --list-new
step mokutil --test-key /data/mok.der
step mokutil --sb-state
