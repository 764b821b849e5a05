step mokutil --test-key /data/mok.der
step mokutil --import /data/mok.der --hash-file /data/import.hash
step mokutil --delete /data/mok.der --hash-file /data/delete.hash
step mokutil --list-delete
