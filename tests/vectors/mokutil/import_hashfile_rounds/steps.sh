step mokutil --import /data/mok.der --hash-file /data/rounds.hash
